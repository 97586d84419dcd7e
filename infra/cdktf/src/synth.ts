/**
 * `npm run synth -w @strata/cdktf [-- outdir]`: synthesizes both stacks to cdktf.out/stacks/<name>/cdk.tf.json
 * (no cdktf CLI needed). `example-app` targets a running Strata (STRATA_ENDPOINT / STRATA_TOKEN);
 * `deployment` describes a multi-host installation on AWS.
 */
import path from 'node:path';
import { App } from 'cdktf';
import { ExampleAppStack } from './stacks/example-app';
import { DeploymentStack } from './stacks/deployment';

export function synth(outdir: string): App {
  const app = new App({ outdir, skipValidation: false });
  new ExampleAppStack(app, 'example-app');
  new DeploymentStack(app, 'deployment', { nodeCount: 3 });
  app.synth();
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outdir = path.resolve(process.argv[2] ?? 'cdktf.out');
  synth(outdir);
  console.log(`synthesized example-app and deployment to ${outdir}/stacks/`);
}
