// Routes of the printers feature register here.
import './printers.routes.ts';
import './jobs.routes.ts';
import './receipt.routes.ts';
