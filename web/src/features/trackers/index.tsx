export { TrackerListPage } from './TrackerListPage';
export { NewTrackerPage } from './NewTrackerPage';
export { EditTrackerPage } from './EditTrackerPage';
export { TrackerForm } from './TrackerForm';
