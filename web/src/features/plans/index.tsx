export { TrialExpiredModal, TRIAL_EXPIRED_TITLE } from './TrialExpiredModal';
