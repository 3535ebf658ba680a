// Routes of the guest feature. Literal paths (/v1/waitlist/messages) register before :id ones.
import './public-waitlist.ts';
import './staff-waitlist.ts';
import './feedback.ts';
import './pricing.ts';
import './contact.ts';
import './socket-limits.ts';
