export { SetupPage } from './SetupPage';
export { LoginPage } from './LoginPage';
export { HomeRedirect } from './HomeRedirect';
export { RequireSignIn } from './RequireSignIn';
export { DemoLink } from './DemoLink';
export { JoinPage } from './JoinPage';
