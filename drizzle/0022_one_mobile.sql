-- One mobile number per person (issue 40, item 8; ADR 085). The profile's 'Phone' and the
-- notifications' 'Mobile number' were two columns; the mobile (the number texts go to) is now
-- the only one. A profile with a phone and no mobile keeps its phone as the mobile (a US
-- number as +1 and ten digits, anything else as it was typed); where both were given, the
-- mobile is kept (it is the one the person confirmed for texts).
UPDATE "profiles" SET "mobile_phone" = CASE
  WHEN regexp_replace("phone", '[^0-9]', '', 'g') ~ '^[2-9][0-9]{9}$'
    THEN '+1' || regexp_replace("phone", '[^0-9]', '', 'g')
  WHEN regexp_replace("phone", '[^0-9]', '', 'g') ~ '^1[2-9][0-9]{9}$'
    THEN '+' || regexp_replace("phone", '[^0-9]', '', 'g')
  ELSE btrim("phone")
END
WHERE "mobile_phone" IS NULL AND "phone" IS NOT NULL AND btrim("phone") <> '';
--> statement-breakpoint
ALTER TABLE "profiles" DROP COLUMN "phone";
