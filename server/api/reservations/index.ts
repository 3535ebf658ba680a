// Routes of the reservations feature register here.
export {};
