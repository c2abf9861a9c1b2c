export { ConnectorsPage } from './ConnectorsPage';
export { IntegrationsPage } from './IntegrationsPage';
