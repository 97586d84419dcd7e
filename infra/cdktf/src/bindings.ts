/**
 * Small base classes for hand-written provider bindings: a typed config in,
 * snake_case Terraform attributes out. (`cdktf get` would generate the same
 * from the provider schema; the Strata and AWS surfaces used here are small,
 * so they are written by hand and keep the dependencies to cdktf + constructs.)
 */
import { TerraformDataSource, TerraformProvider, TerraformResource, type TerraformMetaArguments } from 'cdktf';
import type { Construct } from 'constructs';

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** camelCase keys -> snake_case (recursively for plain objects; arrays and tokens pass through). */
export function toTerraform(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toTerraform);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [snake(k), toTerraform(v)]));
  }
  return value;
}

export abstract class BoundProvider<C extends object> extends TerraformProvider {
  constructor(scope: Construct, id: string, type: string, source: string, version: string | undefined, private readonly config: C & { alias?: string }) {
    super(scope, id, { terraformResourceType: type, terraformProviderSource: source, terraformGeneratorMetadata: { providerName: type, providerVersionConstraint: version } });
    if (config.alias) this.alias = config.alias;
  }
  protected override synthesizeAttributes(): Record<string, unknown> {
    const { alias: _alias, ...rest } = this.config;
    return toTerraform(rest) as Record<string, unknown>;
  }
}

export abstract class BoundResource<C extends object> extends TerraformResource {
  constructor(scope: Construct, id: string, type: string, providerName: string, protected readonly config: C & TerraformMetaArguments) {
    const { dependsOn, count, provider, lifecycle, forEach } = config;
    super(scope, id, { terraformResourceType: type, terraformGeneratorMetadata: { providerName }, dependsOn, count, provider, lifecycle, forEach });
  }
  protected override synthesizeAttributes(): Record<string, unknown> {
    const { dependsOn: _d, count: _c, provider: _p, lifecycle: _l, forEach: _f, provisioners: _pr, connection: _cn, ...rest } = this.config;
    return toTerraform(rest) as Record<string, unknown>;
  }
}

export abstract class BoundDataSource<C extends object> extends TerraformDataSource {
  constructor(scope: Construct, id: string, type: string, providerName: string, protected readonly config: C & TerraformMetaArguments) {
    const { dependsOn, count, provider, lifecycle, forEach } = config;
    super(scope, id, { terraformResourceType: type, terraformGeneratorMetadata: { providerName }, dependsOn, count, provider, lifecycle, forEach });
  }
  protected override synthesizeAttributes(): Record<string, unknown> {
    const { dependsOn: _d, count: _c, provider: _p, lifecycle: _l, forEach: _f, ...rest } = this.config;
    return toTerraform(rest) as Record<string, unknown>;
  }
}
