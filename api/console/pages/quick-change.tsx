import { ALL_PROPERTIES, choose } from './calendar-change.js';

/**
 * Today's short way to the commonest changes: a property (or all of them), the dates, and a button
 * per change (block, open, move the price by a percentage), each a preview on the change page, whose
 * full form then holds the same fields. Nothing is stored before that page's Apply.
 */
export function QuickChangeForm(props: { properties: ReadonlyArray<{ uid: string; name: string }> }) {
  return (
    <section class="card" id="quick-change" aria-labelledby="quick-change-h">
      <h2 id="quick-change-h">Change the calendar</h2>
      <form method="get" action="/app/calendar/change" class="change-form quick">
        {choose('property_uids', 'Properties', ALL_PROPERTIES, [[ALL_PROPERTIES, 'All properties'], ...props.properties.map((p): [string, string] => [p.uid, p.name])])}
        <label>
          From <input type="date" name="from" required />
        </label>
        <label>
          To <input type="date" name="to" />
        </label>
        <label>
          Price up/down by % <input name="price" inputmode="decimal" placeholder="e.g. 10 or -5" />
        </label>
        <div class="actions">
          <button type="submit" name="price_mode" value="percent">
            Preview the price change
          </button>
          <button type="submit" name="availability" value="block" class="secondary">
            Preview blocking
          </button>
          <button type="submit" name="availability" value="open" class="secondary">
            Preview opening
          </button>
        </div>
        <p class="muted">
          More (a price, min and max stay, notes, weekdays): the <a href="/app/calendar">multi-calendar</a> or a property's month.
        </p>
      </form>
    </section>
  );
}
