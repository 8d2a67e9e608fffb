/** The label photo's form (filled in with the label reading). */
export function LabelPhotoForm(_props: { homeId: string; back: string; seed: string }) {
  return null;
}
