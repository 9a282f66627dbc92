import type { AppContext } from '../../../shared/app/context.js';

/*
 * The read-only panel of a property's direct-booking content on its console page (docs/api.md "The
 * remaining iGMS v2 methods"): each listing's title, description, photos, amenities, house rules and
 * capacity, as v2 direct-booking-content answers them. Set through the import; shown, not edited.
 */

type Rows = Awaited<ReturnType<AppContext['services']['listingContent']['ofProperty']>>;

export function ListingContentPanel(props: { rows: Rows }) {
  const withContent = props.rows.filter((r) => r.content !== null);
  return (
    <section aria-labelledby="listing-content">
      <h2 id="listing-content">Direct-booking content</h2>
      {withContent.length === 0 ? (
        <p class="muted">No listing of this property has direct-booking content (it comes with the import).</p>
      ) : (
        withContent.map(({ listingUid, platformType, content: c }) => (
          <article>
            <h3>
              {c!.title ?? listingUid} <span class="muted">({platformType}, {listingUid})</span>
            </h3>
            {c!.description !== null && <p>{c!.description}</p>}
            <dl>
              <dt>Max guests</dt>
              <dd>{c!.max_guests ?? '—'}</dd>
              <dt>Amenities</dt>
              <dd>{(c!.amenities ?? []).join(', ') || '—'}</dd>
              <dt>House rules</dt>
              <dd>{c!.house_rules ?? '—'}</dd>
              <dt>Photos</dt>
              <dd>
                {(c!.photos ?? []).map((p) => (
                  <div>
                    <code>{p.url}</code> {p.caption ?? ''}
                  </div>
                ))}
              </dd>
            </dl>
          </article>
        ))
      )}
    </section>
  );
}
