// The first Intl.NumberFormat a page builds loads the browser's number-formatting data: at
// CPU x 4 it cost 130-240 ms of the service page's first draw (the checks' totals), whatever the
// locale or currency; the next ones cost a few ms. That data is the renderer process's, shared by
// its threads, so a worker that builds a format while the page's modules load and run takes the
// cost off the first draw. The page still formats with Intl (lib/format.ts); this only warms it.
// A plain script of its own, asked for first and run as soon as it is here (service.html): from
// a module it would start after the modules, too late (a worker needs moments of the page's
// thread to start, and the modules keep it busy). The same file is the worker.
(function () {
  if (typeof document === 'undefined') {
    // in the worker: one format of each kind the service page's first screens use, then end
    var locale = self.name || 'en-GB';
    new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(1);
    new Intl.PluralRules(locale).select(1);
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' }).format(0);
    self.close();
    return;
  }
  var lang = null;
  try {
    lang = localStorage.getItem('comanda.language'); // lib/i18n.ts: the language shown last
  } catch (e) {
    // storage refused: the browser's language
  }
  var locale = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', it: 'it-IT' }[lang || navigator.language.slice(0, 2)] || 'en-GB';
  try {
    new Worker(document.currentScript.src, { name: locale });
  } catch (e) {
    // no worker: the first format is built on the page's thread, as before
  }
})();
