// Routes of the webhooks feature register here.
export {};
