// Routes of the reservations feature register here (literal paths before `:id` paths).
import '../tables/routes.ts';
import './availability.ts';
import './routes.ts';
