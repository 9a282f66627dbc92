import type { Scope } from '../auth/index.js';
import type { Infra } from '../../infra/infra.js';
import { notFound, shown } from '../../infra/errors.js';
import { BaseService } from '../service.js';
import { newUid } from '../../infra/ids.js';
import { pageOf, type PageMeta } from '../../infra/http/wire.js';
import { type PropertyRef, type PropertyRepository, type PropertyRow } from './property.repository.js';
import type { PropertiesQuery, Property } from './property.schema.js';
import { minPriceSchema, updateMinPrice } from './property.min-price.js';
import { badParam } from '../../infra/errors.js';

const flag = (b: boolean): 0 | 1 => (b ? 1 : 0);
const num = (v: string | null) => (v === null ? null : Number(v));

/** Which scope-dependent keys a reader sees; the CLI export sees them all. */
export interface PropertyView {
  doorCode: boolean;
  calendarControl: boolean;
  insurance?: boolean;
}

export const viewOfScopes = (scopes: readonly Scope[]): PropertyView => ({
  doorCode: scopes.includes('smart-locks'),
  calendarControl: scopes.includes('pricing-management'),
  insurance: scopes.includes('insurance-settings'),
});

export function propertyToWire(row: PropertyRow, view: PropertyView): Property {
  const p: Property = {
    property_uid: row.uid,
    name: row.name,
    address: row.address,
    checkin_time: String(row.checkinTime),
    checkout_time: String(row.checkoutTime),
    beds: row.beds,
    bedrooms: row.bedrooms,
    bathrooms: num(row.bathrooms),
    is_active: flag(row.isActive),
    comment: row.comment,
    clean_hr: num(row.cleanHr),
    clean_tm: row.cleanTm,
    clean_beds_k: row.cleanBedsK,
    clean_beds_q: row.cleanBedsQ,
    clean_beds_d: row.cleanBedsD,
    clean_beds_s: row.cleanBedsS,
    clean_specials: row.cleanSpecials,
    is_inbox_enabled: flag(row.isInboxEnabled),
    are_auto_reviews_enabled: flag(row.areAutoReviewsEnabled),
    ical_token: row.icalToken,
    location: {
      country_code: row.countryCode,
      postal_code: row.postalCode,
      lat: row.lat,
      lng: row.lng,
      street: row.street,
      city: row.city,
    },
    listings: row.listingUids,
    currency: row.currency,
    time_zone: row.timeZone,
    base_price: num(row.basePrice),
    default_min_stay: row.defaultMinStay,
    guidebook_link: row.guidebookLink,
  };
  if (view.insurance === true) p.selected_insurance_settings = (row.selectedInsuranceSettings as Record<string, unknown> | null) ?? null;
  if (view.doorCode) p.door_access_code = row.doorAccessCode;
  if (view.calendarControl) p.calendar_control_allowed = row.calendarControlAllowed;
  return p;
}

const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 10_000;

/** The properties of a company: the inventory methods, and the one "unknown property" lookup. */
export class PropertiesService extends BaseService {
  /** uid and zone of found properties, per company: the accept path's lookup (see `require`). */
  private readonly refs = new Map<string, { ref: PropertyRef; until: number }>();

  constructor(
    infra: Infra,
    private readonly repo: PropertyRepository,
  ) {
    super(infra);
  }

  async list(companyUid: string, query: PropertiesQuery, scopes: readonly Scope[]): Promise<{ data: Property[]; meta: PageMeta }> {
    const page = pageOf(await this.repo.selectProperties(this.db, companyUid, query.page), query.page);
    const view = viewOfScopes(scopes);
    return { data: page.data.map((r) => propertyToWire(r, view)), meta: page.meta };
  }

  /** Another company's property answers exactly as an unknown one. */
  /** Creates a property of a company (the CLI, the demo): answers its uid. The zone must be an IANA zone. */
  async create(companyUid: string, p: { name: string; timeZone: string }): Promise<string> {
    const uid = newUid('pr_');
    await this.db.transaction((tx) => this.repo.insertProperty(tx, { uid, companyUid, name: p.name, timeZone: p.timeZone }));
    return uid;
  }

  async get(companyUid: string, propertyUid: string, scopes: readonly Scope[]): Promise<{ data: Property }> {
    const row = await this.repo.selectProperty(this.db, companyUid, propertyUid);
    if (!row) throw unknownProperty(propertyUid);
    return { data: propertyToWire(row, viewOfScopes(scopes)) };
  }

  /**
   * The company's property (uid and zone), or the 404 every method answers for an unknown one or
   * another company's (`message` gives an endpoint its own wording). Found properties are kept for
   * 30 s: a property never changes company, and its zone only decides accept-time warnings (the
   * worker judges "past" again against the zone in Postgres). A new property is visible at once.
   * Saves one round trip per accepted batch.
   */
  async require(companyUid: string, propertyUid: string, message?: (uid: string) => string): Promise<PropertyRef> {
    const key = `${companyUid}\u0000${propertyUid}`;
    const hit = this.refs.get(key);
    const now = Date.now();
    if (hit && hit.until > now) return hit.ref;
    const ref = await this.repo.findProperty(this.db, companyUid, propertyUid);
    if (!ref) throw unknownProperty(propertyUid, message);
    if (this.refs.size >= CACHE_MAX) this.refs.clear();
    this.refs.set(key, { ref, until: now + CACHE_TTL_MS });
    return ref;
  }

  /** The whole row (name, hours, door code...), uncached: for writes that copy from it. */
  async requireRow(companyUid: string, propertyUid: string): Promise<PropertyRow> {
    const row = await this.repo.selectProperty(this.db, companyUid, propertyUid);
    if (!row) throw unknownProperty(propertyUid);
    return row;
  }

  /** The console's minimum price form: '' clears it; a bad amount is a 400; another company's property 404. */
  async setMinPrice(companyUid: string, propertyUid: string, raw: unknown): Promise<number | null> {
    const parsed = minPriceSchema.safeParse(typeof raw === 'string' ? raw : '');
    if (!parsed.success) throw badParam('min_price', `min_price ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
    if (!(await updateMinPrice(this.db, companyUid, propertyUid, parsed.data))) throw unknownProperty(propertyUid);
    return parsed.data;
  }
}

/** The one answer to a property that is not the company's: 404 code 11 naming property_uid. */
export function unknownProperty(propertyUid: string, message?: (uid: string) => string) {
  return notFound('property_uid', message ? message(shown(propertyUid)) : `Unknown property ${shown(propertyUid)}`);
}
