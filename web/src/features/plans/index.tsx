export { TrialExpiredModal, TRIAL_EXPIRED_TEXT, TRIAL_EXPIRED_TITLE, trialExpiredTitle } from './TrialExpiredModal';
