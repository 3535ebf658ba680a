import { render } from 'preact';

render(<main />, document.getElementById('root')!);
