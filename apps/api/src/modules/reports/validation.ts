/**
 * Route validator for the reports, QPS and DataViewer routes (plugins/validation.ts
 * domainValidator): the envelope's `message` is the first domain key (report.dates_mandatory,
 * qps.interval_too_short, …), the spec's two headline rules first.
 */
import { domainValidator as validatorFor } from '../../plugins/validation.ts';

export const domainValidator = validatorFor(['report.', 'qps.'], ['report.dates_mandatory', 'qps.dates_mandatory', 'report.dimension_or_metric_required']);
