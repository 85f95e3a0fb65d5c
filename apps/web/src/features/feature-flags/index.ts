export { FeatureFlagsPage } from './components/feature-flags-page';
