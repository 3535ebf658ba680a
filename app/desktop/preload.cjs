// The only bridge between the dashboard page and the app. Sandboxed preloads are CommonJS
// and may require only a few Electron modules. Exposes two calls and no Node at all.
const { contextBridge, ipcRenderer } = require('electron');

contextBridge.exposeInMainWorld('comandaDesktop', {
  info: () => ipcRenderer.invoke('desktop:info'),
  openLogs: () => ipcRenderer.invoke('desktop:open-logs'),
});
