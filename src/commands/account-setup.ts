export { formatAccountSetup } from '../entry/account-setup';
