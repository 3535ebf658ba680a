import { addDictionaries } from '../../lib/i18n.ts';
import { firstDayEn, type FirstDayKey } from './en.ts';

// the other languages of the first-day texts
const de: Record<FirstDayKey, string> = {
  'first.title': 'Vor Ihrem ersten Service',
  'first.progress': '{done} von {total} erledigt',
  'first.hours': 'Öffnungszeiten festlegen',
  'first.menu': 'Gerichte der Speisekarte anlegen',
  'first.tables': 'Tische anlegen',
  'first.qr': 'Jedem Tisch seinen QR-Code geben und das Blatt drucken',
  'first.printers': 'Einen Drucker einrichten',
  'first.screen': 'Einen Küchenbildschirm koppeln',
  'first.staff': 'Mitarbeitende anlegen',
  'first.waitlist': 'Online-Warteliste einschalten',
  'first.backups': 'Sicherungen einschalten',
  'first.cloud': 'Diesen Hub mit der Cloud verbinden',
  'first.done': 'Erledigt',
  'first.todo': 'Offen',
  'first.needHours': 'Legen Sie Öffnungszeiten fest, um Reservierungen anzunehmen.',
  'first.openHours': 'Öffnungszeiten',
};
const fr: Record<FirstDayKey, string> = {
  'first.title': 'Avant votre premier service',
  'first.progress': '{done} sur {total} faits',
  'first.hours': 'Indiquer vos horaires d’ouverture',
  'first.menu': 'Ajouter les plats de votre carte',
  'first.tables': 'Ajouter vos tables',
  'first.qr': 'Donner à chaque table son QR code et imprimer la feuille',
  'first.printers': 'Installer une imprimante',
  'first.screen': 'Associer un écran de cuisine',
  'first.staff': 'Ajouter votre équipe',
  'first.waitlist': 'Activer la liste d’attente en ligne',
  'first.backups': 'Activer les sauvegardes',
  'first.cloud': 'Relier ce hub au cloud',
  'first.done': 'Fait',
  'first.todo': 'À faire',
  'first.needHours': 'Indiquez vos horaires d’ouverture pour prendre des réservations.',
  'first.openHours': 'Horaires d’ouverture',
};
const es: Record<FirstDayKey, string> = {
  'first.title': 'Antes de su primer servicio',
  'first.progress': '{done} de {total} hechos',
  'first.hours': 'Fijar el horario de apertura',
  'first.menu': 'Añadir los platos de la carta',
  'first.tables': 'Añadir las mesas',
  'first.qr': 'Dar a cada mesa su código QR e imprimir la hoja',
  'first.printers': 'Configurar una impresora',
  'first.screen': 'Vincular una pantalla de cocina',
  'first.staff': 'Añadir al personal',
  'first.waitlist': 'Activar la lista de espera en línea',
  'first.backups': 'Activar las copias de seguridad',
  'first.cloud': 'Conectar este hub con la nube',
  'first.done': 'Hecho',
  'first.todo': 'Pendiente',
  'first.needHours': 'Fije el horario de apertura para aceptar reservas.',
  'first.openHours': 'Horario de apertura',
};
const it: Record<FirstDayKey, string> = {
  'first.title': 'Prima del primo servizio',
  'first.progress': '{done} di {total} fatti',
  'first.hours': 'Impostare gli orari di apertura',
  'first.menu': 'Aggiungere i piatti del menù',
  'first.tables': 'Aggiungere i tavoli',
  'first.qr': 'Dare a ogni tavolo il suo codice QR e stampare il foglio',
  'first.printers': 'Configurare una stampante',
  'first.screen': 'Associare uno schermo di cucina',
  'first.staff': 'Aggiungere il personale',
  'first.waitlist': 'Attivare la lista d’attesa online',
  'first.backups': 'Attivare i backup',
  'first.cloud': 'Collegare questo hub al cloud',
  'first.done': 'Fatto',
  'first.todo': 'Da fare',
  'first.needHours': 'Impostate gli orari di apertura per accettare prenotazioni.',
  'first.openHours': 'Orari di apertura',
};

// back office only, like the ops texts
addDictionaries({ en: firstDayEn, de, fr, es, it });
