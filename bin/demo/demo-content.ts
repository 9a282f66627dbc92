/*
 * A demo listing's direct-booking content (v2 direct-booking-content, issue 36), as a listing line
 * of the import carries it. Derived from the property, without drawing from the PRNG: every other
 * demo value stays as it was.
 */

const AMENITIES = ['wifi', 'kitchen', 'washer', 'air conditioning', 'workspace', 'balcony', 'parking'];

export function demoListingContent(name: string, propertyUid: string, bedrooms: number, city: string | null) {
  return {
    title: name,
    description: `${bedrooms} bedroom${bedrooms > 1 ? 's' : ''}${city ? ` in ${city}` : ''}, a short walk from the centre, with a fully equipped kitchen.`,
    photos: [
      { url: `https://demo-stays.example/img/${propertyUid}.jpg`, caption: 'Living room' },
      { url: `https://demo-stays.example/img/${propertyUid}-bedroom.jpg`, caption: 'Bedroom' },
    ],
    amenities: AMENITIES.slice(0, 3 + bedrooms),
    house_rules: 'No parties or events. Quiet hours 22:00-08:00. No smoking.',
    max_guests: bedrooms * 2,
  };
}
