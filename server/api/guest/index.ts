// Routes of the guest feature register here.
export {};
