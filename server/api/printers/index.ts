// Routes of the printers feature register here.
export {};
