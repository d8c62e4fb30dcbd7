import { describe, expect, it } from 'vitest';
import { recordedBootstrap } from './recorded-bootstrap.js';

describe('recordedBootstrap', () => {
  it('reads config.bootstrap, {} when none is recorded', () => {
    expect(recordedBootstrap({ system: 'acal/sp', bootstrap: { iterations: 200 } })).toEqual({ iterations: 200 });
    expect(recordedBootstrap({ system: 'mad' })).toEqual({});
  });

  it('refuses a malformed record naming the file and field', () => {
    expect(() => recordedBootstrap({ bootstrap: { iterations: 0 } }, 'runs/a/config.json')).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringMatching(/runs\/a\/config\.json.*config\.bootstrap\.iterations.*got 0/) }),
    );
    expect(() => recordedBootstrap({ bootstrap: 200 })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });

  it('refuses a seed past 4294967295, which would resample as another (4294967297 as seed 1) under its own name', () => {
    expect(recordedBootstrap({ bootstrap: { seed: 4294967295 } })).toEqual({ seed: 4294967295 });
    expect(() => recordedBootstrap({ bootstrap: { seed: 4294967297 } }, 'runs/a/config.json')).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(/config\.bootstrap\.seed.*an integer from 0 to 4294967295.*got 4294967297/),
      }),
    );
  });
});
