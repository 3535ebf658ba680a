// Routes of the analytics feature register here.
export {};
