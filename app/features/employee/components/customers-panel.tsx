import { Form, useLocation } from "react-router";
import { SearchActions } from "./search-actions";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { listHeading } from "./card-rows";
import { CustomersTable, type CustomerWithMembership } from "./customers-table";
import { withParams } from "./requests-panel";
import { Pager } from "~/components/ui/pager";

export function CustomersPanel({
  customers,
  total,
  allCustomers,
  page,
  pageCount,
  search,
}: {
  customers: CustomerWithMembership[];
  /** Customers matching the search. */
  total: number;
  /** Every customer. */
  allCustomers: number;
  page: number;
  pageCount: number;
  search: string;
}) {
  const location = useLocation();
  return (
    <Card>
      <CardHeader className="gap-4">
        <CardTitle asChild>
          <h2 className="text-xl">
            {listHeading("Customers", {
              shown: total,
              total: allCustomers,
              filtered: Boolean(search),
              noun: ["customer", "customers"],
            })}
          </h2>
        </CardTitle>
        <Form
          method="get"
          role="search"
          aria-label="Search customers"
          className="flex flex-col gap-3 sm:flex-row sm:items-end"
          preventScrollReset
        >
          <input type="hidden" name="tab" value="customers" />
          <div className="grid flex-1 gap-1.5">
            <Label htmlFor="customers-search">Search by name, e-mail or phone</Label>
            <Input
              id="customers-search"
              name="cq"
              type="search"
              defaultValue={search}
              key={search}
              maxLength={100}
            />
          </div>
          <SearchActions clearTo="?tab=customers" canClear={Boolean(search)} />
        </Form>
      </CardHeader>
      <CardContent>
        {customers.length === 0 ? (
          <p className="py-10 text-center text-muted-foreground">
            {search ? "No customers match this search" : "No customers yet"}
          </p>
        ) : (
          <CustomersTable customers={customers} />
        )}
        <Pager
          label="Customer pages"
          page={page}
          pageCount={pageCount}
          to={(n) => withParams(location.search, { cpage: String(n), tab: "customers" })}
        />
      </CardContent>
    </Card>
  );
}
