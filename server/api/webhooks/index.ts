// Routes of the webhooks feature register here.
import './routes.ts';
