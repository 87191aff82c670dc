export { createAlertActivities } from './operations/alerts/activities';
