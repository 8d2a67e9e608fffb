/** A notice shown as a toast (docs/product.md section 8): its style, its title and its text. */
export type ToastMessage = {
  kind: "success" | "info" | "error";
  title: string;
  description: string;
};
