// Routes of the orders feature register here.
export {};
