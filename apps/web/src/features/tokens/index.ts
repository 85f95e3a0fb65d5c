export { TokensPage } from './components/tokens-page';
export { CreateTokenFlow, type CreateTokenFlowProps } from './components/create-token-flow';
