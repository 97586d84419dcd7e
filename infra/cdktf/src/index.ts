export * from './strata';
export * as aws from './aws';
export { ExampleAppStack, type ExampleAppProps } from './stacks/example-app';
export { DeploymentStack, type DeploymentProps } from './stacks/deployment';
export { synth } from './synth';
