import { render } from 'preact';
import { App } from './app';
import { loadConfig } from './config';
import './styles.css';

const root = document.getElementById('app')!;

loadConfig()
  .then((config) => render(<App config={config} />, root))
  .catch((error: unknown) => {
    root.innerHTML = '';
    const box = document.createElement('div');
    box.className = 'notice notice-danger boot-error';
    box.setAttribute('role', 'alert');
    box.textContent = `The admin panel could not start: its configuration (/admin/config.json) did not load. ${error instanceof Error ? error.message : ''}`;
    root.append(box);
  });
