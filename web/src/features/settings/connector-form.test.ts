import { describe, expect, it } from 'vitest';
import type { Connector } from '../../api/queries/collection';
import { baseUrlError, formFromConnector, missingRequired, needsText, toInput } from './connector-form';

const twitter: Connector = {
  name: 'twitter',
  label: 'X (Twitter) recent search',
  description: '',
  platforms: ['twt'],
  enabled: false,
  hasBaseUrl: true,
  baseUrl: null,
  defaultBaseUrl: 'https://api.x.com',
  collectsBy: 'poll',
  baseUrlSchemes: ['http://', 'https://'],
  fields: [
    { name: 'bearer_token', label: 'Bearer token', secret: true, required: true, multiline: false, help: '', isSet: false, options: [] },
    { name: 'note', label: 'Note', secret: false, required: false, multiline: false, help: '', value: 'hi', isSet: true, options: [] },
  ],
  status: 'not_configured',
};

describe('connector form', () => {
  it('starts with plain values and blank secrets', () => {
    const v = formFromConnector(twitter);
    expect(v.values).toEqual({ bearer_token: '', note: 'hi' });
    expect(v.enabled).toBe(false);
  });

  it('needs required fields only to switch on, and counts a kept secret', () => {
    const v = formFromConnector(twitter);
    expect(missingRequired(twitter, v)).toEqual({});
    expect(missingRequired(twitter, { ...v, enabled: true })).toHaveProperty('bearer_token');
    const saved = { ...twitter, fields: [{ ...twitter.fields[0], isSet: true }, twitter.fields[1]] };
    expect(missingRequired(saved, { ...v, enabled: true })).toEqual({});
    expect(missingRequired(saved, { ...v, enabled: true, clear: ['bearer_token'] })).toHaveProperty('bearer_token');
  });

  it('leaves blank secrets out of the request', () => {
    const v = { ...formFromConnector(twitter), enabled: true, baseUrl: ' http://127.0.0.1:9 ' };
    expect(toInput(twitter, v)).toEqual({ enabled: true, baseUrl: 'http://127.0.0.1:9', values: { note: 'hi' }, clear: [] });
    v.values.bearer_token = 'secret';
    expect(toInput(twitter, v).values.bearer_token).toBe('secret');
  });

  it('checks the base URL', () => {
    const v = formFromConnector(twitter);
    expect(baseUrlError({ ...v, baseUrl: '' })).toBeNull();
    expect(baseUrlError({ ...v, baseUrl: 'https://api.x.com' })).toBeNull();
    expect(baseUrlError({ ...v, baseUrl: 'ftp://x' })).not.toBeNull();
    expect(baseUrlError({ ...v, baseUrl: 'http://a b' })).not.toBeNull();
  });

  it('accepts the schemes a connector asks for and says what it needs', () => {
    const v = formFromConnector(twitter);
    const ws = ['ws://', 'wss://'];
    expect(baseUrlError({ ...v, baseUrl: 'wss://jetstream.example' }, ws)).toBeNull();
    expect(baseUrlError({ ...v, baseUrl: 'https://jetstream.example' }, ws)).toBe('Enter an address starting with ws:// or wss://.');
    expect(baseUrlError({ ...v, baseUrl: 'wss://' }, ws)).not.toBeNull();
    expect(needsText(twitter)).toBe('Needs: bearer token. Polls each running tracker on a schedule.');
    expect(needsText({ ...twitter, fields: [], collectsBy: 'stream' })).toBe('No key needed. Reads one live stream for every running tracker.');
  });
});
