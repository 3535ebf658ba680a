// Routes of the orders feature. Literal paths come before `:id` paths.
import './routes.ts';
import './public-routes.ts';
