import { describe, expect, it } from 'vitest';
import { ruleCondition, validateChannelForm, validateRuleForm } from './alert-forms';

describe('alert forms', () => {
  it('turns a rule form into a request, or names the field', () => {
    const base = { clusterId: 'c1', metric: 'memory_used_percent' as const, threshold: '80', forSeconds: '30', channelIds: ['x'] };
    expect(validateRuleForm(base).request).toEqual({ clusterId: 'c1', body: { metric: 'memory_used_percent', threshold: 80, forSeconds: 30, channelIds: ['x'], enabled: true } });
    expect(validateRuleForm({ ...base, clusterId: '' }).request?.clusterId).toBeNull();
    expect(validateRuleForm({ ...base, threshold: '-1' }).errors.threshold).toBe('Must be 0 or more.');
    expect(validateRuleForm({ ...base, threshold: '' }).errors.threshold).toBe('Enter a number.');
    expect(validateRuleForm({ ...base, forSeconds: '0' }).errors.forSeconds).toBeTruthy();
    expect(validateRuleForm({ ...base, metric: 'failover', threshold: '' }).request?.body.threshold).toBe(0);
  });
  it('turns a channel form into a request, or names the field', () => {
    const base = { type: 'webhook' as const, name: '', url: 'https://hooks.example/x', secret: 'long-enough', format: 'slack' as const, to: '' };
    expect(validateChannelForm(base).request).toEqual({ type: 'webhook', name: undefined, url: 'https://hooks.example/x', secret: 'long-enough', format: 'slack' });
    expect(validateChannelForm({ ...base, url: 'ftp://x' }).errors.url).toBeTruthy();
    expect(validateChannelForm({ ...base, secret: 'short' }).errors.secret).toBeTruthy();
    expect(validateChannelForm({ ...base, type: 'email', to: 'a@b.c, d@e.f' }).request).toEqual({ type: 'email', name: undefined, to: ['a@b.c', 'd@e.f'] });
    expect(validateChannelForm({ ...base, type: 'email', to: 'nobody' }).errors.to).toBeTruthy();
  });
  it('says the condition in words', () => {
    expect(ruleCondition({ metric: 'memory_used_percent', threshold: 80, forSeconds: 30 })).toBe('> 80 % for 30 s');
    expect(ruleCondition({ metric: 'failover', threshold: 0, forSeconds: 300 })).toBe('more than 0 in 300 s');
  });
});
