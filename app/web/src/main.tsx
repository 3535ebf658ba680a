import { render } from 'preact';
import './styles.css';
import './i18n/back-office.ts';
import { App } from './app.tsx';
import { onLinkClick } from './lib/router.ts';

document.addEventListener('click', onLinkClick);
render(<App />, document.getElementById('root')!);
