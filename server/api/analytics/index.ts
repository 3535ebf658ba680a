// Routes of the analytics feature and of the records its reports read.
import './reports.ts';
import '../customers/routes.ts';
import '../staff/routes.ts';
import '../shifts/routes.ts';
import '../inventory-items/routes.ts';
