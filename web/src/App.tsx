import { Navigate, Route, Routes } from 'react-router';
import { SetupPage, LoginPage, HomeRedirect, JoinPage } from './features/auth';
import { TrackerListPage, NewTrackerPage, EditTrackerPage } from './features/trackers';
import { TrackerShell } from './features/shell';
import { StaticInfoPage } from './features/misc';
import { ConnectorsPage, IntegrationsPage } from './features/settings';
import { AccountsPage, AuditLogPage } from './features/admin';
import { TrialExpiredModal } from './features/plans';
import { ExportPage } from './features/exports';
import { UnsubscribePage } from './features/notifications/UnsubscribePage';

export function App() {
  return (
    <>
      <Routes>
        <Route path="/" element={<HomeRedirect />} />
        <Route path="/setup" element={<SetupPage />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/join/:token" element={<JoinPage />} />
        <Route path="/unsubscribe" element={<UnsubscribePage />} />
        <Route path="/mytracks/hashtag" element={<TrackerListPage />} />
        <Route path="/mytracks/account" element={<TrackerListPage />} />
        <Route path="/new/ht/step1" element={<NewTrackerPage />} />
        <Route path="/new/sl/step1" element={<NewTrackerPage />} />
        <Route path="/edit/:hash/:friendly" element={<EditTrackerPage />} />
        <Route path="/edit/:hash" element={<EditTrackerPage />} />
        <Route path="/hashtag-tracking/export/:hash/:format/:days/*" element={<ExportPage />} />
        <Route path="/hashtag-tracking/:page/:hash/:friendly?" element={<TrackerShell />} />
        <Route path="/hashtag-tracking/*" element={<TrackerShell />} />
        <Route path="/settings/connectors" element={<ConnectorsPage />} />
        <Route path="/settings/integrations" element={<IntegrationsPage />} />
        <Route path="/admin/accounts" element={<AccountsPage />} />
        <Route path="/admin/audit" element={<AuditLogPage />} />
        <Route path="/pricing" element={<StaticInfoPage kind="pricing" />} />
        <Route path="/pricing-plans" element={<StaticInfoPage kind="pricing" />} />
        <Route path="/contact-us" element={<StaticInfoPage kind="contact" />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
      {/* Every signed-in page: the notice that the account's trial has ended, once a session. */}
      <TrialExpiredModal />
    </>
  );
}
