// Moved to src/untrusted/numbers.ts (the bottom layer); this path re-exports it until the lead removes the shim.
export { decimalHalf, decimalNumber, decimalSum, plainDecimal } from '../untrusted/numbers.js';
