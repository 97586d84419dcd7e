import { describe, expect, it } from 'vitest';
import { TlsClientAuth } from '@strata/api';
import { CLIENT_AUTH_OPTIONS, clientAuthWarning } from './options';
import { changeLabel, changeValue } from '../Cluster/Settings/ApplyConfirm';

describe('client certificates as the wizard and Settings offer them', () => {
  it('has one title and one line for clients per value of the schema', () => {
    expect(Object.keys(CLIENT_AUTH_OPTIONS).sort()).toEqual([...TlsClientAuth.options].sort());
    for (const o of Object.values(CLIENT_AUTH_OPTIONS)) expect(o.description.length).toBeGreaterThan(20);
    expect(CLIENT_AUTH_OPTIONS.required.description).toMatch(/refused/);
  });

  it('warns only when clients without a certificate start to be refused', () => {
    expect(clientAuthWarning('none', 'required')).toMatch(/without a certificate are refused/);
    expect(clientAuthWarning('optional', 'required')).toMatch(/without a certificate are refused/);
    expect(clientAuthWarning('none', 'required')).toMatch(/Connect tab/);
    for (const [from, to] of [['none', 'optional'], ['optional', 'none'], ['required', 'optional'], ['required', 'none'], ['required', 'required'], ['none', 'none']] as const) {
      expect(clientAuthWarning(from, to), `${from} -> ${to}`).toBeNull();
    }
  });

  it('names the change in the plan and the confirmation in words', () => {
    expect(changeLabel('tlsClientAuth')).toBe('Client certificates');
    expect(`${changeValue('tlsClientAuth', 'none')} → ${changeValue('tlsClientAuth', 'required')}`).toBe('Not asked → Required');
    expect(changeValue('fencing', 'on')).toBe('On (needs a replica)');
  });
});
