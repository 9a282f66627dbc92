import { describe, expect, it } from 'vitest';
import { CompanyService, DEFAULT_SETTINGS, type CompanyRepository } from '../../shared/domain/company/index.js';
import { ConsoleService, type ConsoleRepository } from '../../shared/domain/console/index.js';
import { TransferService, type TransferRepository } from '../../shared/domain/transfer/index.js';
import { fakeInfra, strictFake } from '../support/services.js';

/*
 * The services the composition root now hands their repositories (issue 34, one wiring style),
 * over fakes: what each path reads and writes, with no database.
 */

describe('CompanyService over a fake repository', () => {
  it('answers the defaults for a company without settings, and refuses a bad zone naming time_zone without writing', async () => {
    const company = new CompanyService(fakeInfra().infra, strictFake<CompanyRepository>('companyRepository', { selectCompanySettings: async () => undefined }));
    expect(await company.settings('co_1')).toEqual(DEFAULT_SETTINGS);
    await expect(company.setSettings('co_1', { time_zone: 'Mars/Olympus', price_change_threshold: 30 })).rejects.toMatchObject({ status: 400, param: 'time_zone' });
  });
});

describe('ConsoleService over a fake repository', () => {
  it('refuses a month that is not YYYY-MM before reading anything', async () => {
    const console = new ConsoleService(fakeInfra().infra, strictFake<ConsoleRepository>('consoleRepository'));
    await expect(console.month('co_1', 'pr_1', '2030-13')).rejects.toMatchObject({ status: 400, param: 'month' });
  });
});

describe('TransferService.importNewCompany over a fake repository', () => {
  const line = {
    host: { kind: 'host', host_uid: 'ho_1', name: 'Host', email: [], phone_number: [], platform_type: 'airbnb', thumbnail_url: null },
    guest: { kind: 'guest', guest_uid: 'gu_1', name: 'Guest', email: ['g@guest.example'], phone_number: [], platform_type: 'airbnb', thumbnail_url: null },
  };
  const world = () => {
    const { infra } = fakeInfra();
    const written: string[] = [];
    const repo = strictFake<TransferRepository>('transferRepository', {
      upsertLines: async (_tx, companyUid, t, lines, fresh) => {
        written.push(`${companyUid} ${t.kind} ${lines.length} fresh=${String(fresh)}`);
      },
    });
    const transfer = new TransferService(infra, repo, { insertCompany: async (_tx, c) => void written.push(`company ${c.uid}`) });
    return { transfer, written };
  };

  it('writes the company, then each batch in kind order (hosts before guests whatever the order given), as new rows', async () => {
    const w = world();
    const counts = await w.transfer.importNewCompany({ uid: 'co_new', name: 'New' }, [[line.guest, line.host], [line.guest]]);
    expect(w.written).toEqual(['company co_new', 'co_new host 1 fresh=true', 'co_new guest 1 fresh=true', 'co_new guest 1 fresh=true']);
    expect(counts).toMatchObject({ host: 1, guest: 2, booking: 0 });
  });

  it('fails the whole on a line the schema refuses, naming it, before writing its batch', async () => {
    const w = world();
    const bad = { ...line.guest, email: ['not an address'] };
    await expect(w.transfer.importNewCompany({ uid: 'co_new', name: 'New' }, [[line.host], [bad]])).rejects.toThrow(/line 2 refused: email/);
    expect(w.written).toEqual(['company co_new', 'co_new host 1 fresh=true']);
  });
});
