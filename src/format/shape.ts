// Moved to src/untrusted/ (the bottom layer); this path re-exports it until the lead removes the shim.

export { timeNamed, yearNamed } from '../untrusted/names.js';
export { numberOf, numericColumn, numericText } from '../untrusted/numbers.js';
export { idOf, messageOf } from '../untrusted/reader.js';
export { mainSeries, readSeries, seriesList, timeField } from '../untrusted/series.js';
export { asTime, isoTime } from '../untrusted/times.js';
