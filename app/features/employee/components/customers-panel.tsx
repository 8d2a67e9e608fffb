import { Form, useLocation } from "react-router";
import { SearchActions } from "./search-actions";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import type { CustomerRow } from "~/features/customers/index.server";
import { MembershipLink } from "~/features/memberships";
import type { ActiveMembership } from "~/features/memberships/index.server";
import { CARDS_BELOW_LG as cards } from "~/components/ui/table-cards";
import { listHeading } from "./card-rows";
import { withParams } from "./requests-panel";
import { formatPhone, phoneHref } from "~/lib/phone";
import { longDate, minuteLabel } from "~/lib/business-calendar";
import { customerName } from "~/lib/names";
import { Pager } from "~/components/ui/pager";

/** A customer row, with their active membership (ADR 014) when they have one. */
type CustomerWithMembership = CustomerRow & { membership?: ActiveMembership | null };

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
          <Table containerLabel="Customers" className={cards.table}>
            <TableHeader className={cards.header}>
              <TableRow>
                <TableHead scope="col">Name</TableHead>
                <TableHead scope="col">E-mail</TableHead>
                <TableHead scope="col">Phone</TableHead>
                <TableHead scope="col">Home address</TableHead>
                <TableHead scope="col">Open requests</TableHead>
                <TableHead scope="col">Next appointment</TableHead>
                <TableHead scope="col">Membership</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody className={cards.body}>
              {customers.map((customer) => (
                <TableRow key={customer.userId} className={`align-top ${cards.row}`}>
                  <TableCell className={`font-medium max-lg:text-base ${cards.cell}`}>
                    {customerName(customer.firstName, customer.lastName)}
                  </TableCell>
                  <TableCell
                    data-label="E-mail"
                    className={`max-lg:break-all ${cards.cell} ${cards.labelled}`}
                  >
                    <a className="text-primary underline" href={`mailto:${customer.email}`}>
                      {customer.email}
                    </a>
                  </TableCell>
                  <TableCell data-label="Phone" className={`${cards.cell} ${cards.labelled}`}>
                    {customer.phone ? (
                      <a className="text-primary underline" href={phoneHref(customer.phone)}>
                        {formatPhone(customer.phone)}
                      </a>
                    ) : (
                      <span className="text-muted-foreground">Not provided</span>
                    )}
                  </TableCell>
                  <TableCell
                    data-label="Home address"
                    className={`min-w-48 whitespace-normal ${cards.cell} ${cards.labelled}`}
                  >
                    {customer.address ? (
                      <>
                        {customer.address}
                        <br />
                        {customer.city}, {customer.state} {customer.zipCode}
                      </>
                    ) : (
                      <span className="text-muted-foreground">No home address</span>
                    )}
                  </TableCell>
                  <TableCell
                    data-label="Open requests"
                    className={`${cards.cell} ${cards.labelled}`}
                  >
                    {customer.openRequests}
                  </TableCell>
                  <TableCell
                    data-label="Next appointment"
                    className={`whitespace-normal ${cards.cell} ${cards.labelled}`}
                  >
                    {customer.nextAppointmentDate && customer.nextAppointmentStart ? (
                      <>
                        {longDate(customer.nextAppointmentDate)}
                        <br />
                        {minuteLabel(customer.nextAppointmentStart)}
                      </>
                    ) : (
                      <span className="text-muted-foreground">None scheduled</span>
                    )}
                  </TableCell>
                  <TableCell
                    data-label="Membership"
                    className={`whitespace-normal ${cards.cell} ${cards.labelled}`}
                  >
                    <MembershipLink
                      customerId={customer.userId}
                      membership={customer.membership}
                      name={customerName(customer.firstName, customer.lastName)}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
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
