// Routes of payments and the day's close (issue 25).
import './routes.ts';
import './close.routes.ts';
