// Routes of the orders feature. Literal paths come before `:id` paths.
import './routes.ts';
import './service-routes.ts';
import './public-routes.ts';
import './qr-codes.ts';
import './guest-qr.ts';
