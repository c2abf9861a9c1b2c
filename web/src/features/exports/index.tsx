// Exports of a tracker's pages as background jobs: the dashboard's Export menu and the export page.
export { ExportMenu } from './ExportMenu';
export { ExportPage } from './ExportPage';
