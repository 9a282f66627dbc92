/*
 * A demo listing's direct-booking content (v2 direct-booking-content, issue 36). Derived from the
 * property, without drawing from the PRNG: every other demo value stays as it was.
 */

const AMENITIES = ['wifi', 'kitchen', 'washer', 'air conditioning', 'workspace', 'balcony', 'parking'];

export function demoListingContent(name: string, propertyUid: string, bedrooms: number, city: string | null) {
  return {
    contentTitle: name,
    contentDescription: `${bedrooms} bedroom${bedrooms > 1 ? 's' : ''}${city ? ` in ${city}` : ''}, a short walk from the centre, with a fully equipped kitchen.`,
    contentPhotos: [
      { url: `https://demo-stays.example/img/${propertyUid}.jpg`, caption: 'Living room' },
      { url: `https://demo-stays.example/img/${propertyUid}-bedroom.jpg`, caption: 'Bedroom' },
    ],
    contentAmenities: AMENITIES.slice(0, 3 + bedrooms),
    contentHouseRules: 'No parties or events. Quiet hours 22:00-08:00. No smoking.',
    contentMaxGuests: bedrooms * 2,
  };
}
