import { Link } from "react-router";
import { zipAndCity } from "~/content/zip-cities";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import { CARDS_BELOW_LG as cards } from "~/components/ui/table-cards";
import type { LeadListItem } from "../people.server";
import { LeadStatusBadge, sourceLabel, whenLabel } from "./lead-status-badge";
import { formatPhone } from "~/lib/phone";

/** The Leads tab's table: one page of leads, cards below the large breakpoint. */
export function LeadsTable({ leads }: { leads: LeadListItem[] }) {
  return (
    <Table containerLabel="Leads" className={cards.table}>
      <TableHeader className={cards.header}>
        <TableRow>
          <TableHead scope="col">Name</TableHead>
          <TableHead scope="col">Contact</TableHead>
          <TableHead scope="col">ZIP and city</TableHead>
          <TableHead scope="col">Came from</TableHead>
          <TableHead scope="col">When</TableHead>
          <TableHead scope="col">Status</TableHead>
          <TableHead scope="col">Owner</TableHead>
          <TableHead scope="col">Notes</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody className={cards.body}>
        {leads.map((lead) => (
          <LeadTableRow key={lead.id} lead={lead} />
        ))}
      </TableBody>
    </Table>
  );
}

function LeadTableRow({ lead }: { lead: LeadListItem }) {
  return (
    <TableRow className={`align-top ${cards.row}`} data-lead={lead.email}>
      <TableCell className={`font-medium max-lg:text-base ${cards.cell}`}>
        <Link className="text-primary underline" to={`/employee/leads/${lead.id}`}>
          {lead.name}
        </Link>
        {lead.entries > 1 ? (
          <span className="block text-xs text-muted-foreground">{lead.entries} entries</span>
        ) : null}
      </TableCell>
      <TableCell
        data-label="Contact"
        className={`max-lg:break-all ${cards.cell} ${cards.labelled}`}
      >
        <a className="text-primary underline" href={`mailto:${lead.email}`}>
          {lead.email}
        </a>
        {lead.phone ? <span className="block">{formatPhone(lead.phone)}</span> : null}
      </TableCell>
      <TableCell data-label="ZIP and city" className={`${cards.cell} ${cards.labelled}`}>
        {zipAndCity(lead.zipCode, lead.city) ?? (
          <span className="text-muted-foreground">Not given</span>
        )}
      </TableCell>
      <TableCell
        data-label="Came from"
        className={`whitespace-normal max-lg:break-all ${cards.cell} ${cards.labelled}`}
      >
        {sourceLabel(lead.source)}
      </TableCell>
      <TableCell data-label="When" className={`${cards.cell} ${cards.labelled}`}>
        {whenLabel(lead.lastEntryAt)}
      </TableCell>
      <TableCell data-label="Status" className={`${cards.cell} ${cards.labelled}`}>
        <LeadStatusBadge status={lead.status} lostReason={lead.lostReason} />
      </TableCell>
      <TableCell data-label="Owner" className={`${cards.cell} ${cards.labelled}`}>
        {lead.owner || <span className="text-muted-foreground">Nobody yet</span>}
      </TableCell>
      <TableCell
        data-label="Notes"
        className={`max-w-64 whitespace-normal ${cards.cell} ${cards.labelled}`}
      >
        {lead.notes || <span className="text-muted-foreground">None</span>}
      </TableCell>
    </TableRow>
  );
}
