import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import { CARDS_BELOW_LG as cards } from "~/components/ui/table-cards";
import type { CustomerRow } from "~/features/customers/index.server";
import { MembershipLink } from "~/features/memberships";
import type { ActiveMembership } from "~/features/memberships/index.server";
import { longDate, minuteLabel } from "~/lib/business-calendar";
import { customerName } from "~/lib/names";
import { formatPhone, phoneHref } from "~/lib/phone";

/** A customer row, with their active membership (ADR 014) when they have one. */
export type CustomerWithMembership = CustomerRow & { membership?: ActiveMembership | null };

/** The Customers tab's table: one page of customers, cards below the large breakpoint. */
export function CustomersTable({ customers }: { customers: CustomerWithMembership[] }) {
  return (
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
          <CustomerTableRow key={customer.userId} customer={customer} />
        ))}
      </TableBody>
    </Table>
  );
}

function CustomerTableRow({ customer }: { customer: CustomerWithMembership }) {
  return (
    <TableRow className={`align-top ${cards.row}`}>
      <TableCell className={`font-medium max-lg:text-base ${cards.cell}`}>
        {customerName(customer.firstName, customer.lastName)}
      </TableCell>
      <TableCell data-label="E-mail" className={`max-lg:break-all ${cards.cell} ${cards.labelled}`}>
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
      <TableCell data-label="Open requests" className={`${cards.cell} ${cards.labelled}`}>
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
  );
}
