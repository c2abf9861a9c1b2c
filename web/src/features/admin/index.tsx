export { AccountsPage } from './AccountsPage';
export { AuditLogPage } from './AuditLogPage';
