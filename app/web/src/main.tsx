import { startApp } from './start.tsx';

startApp();
