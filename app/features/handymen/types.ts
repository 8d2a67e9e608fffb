/** A handyman as members and staff see him: his name and his photo (or his initials). */
export type HandymanCard = {
  id: string;
  name: string;
  firstName: string;
  photoUrl: string | null;
};
