import type { ArchivalPdf } from '../invoices/pdf';
import { esc } from './xml';

/** Factur-X 1.0 (ZUGFeRD 2.x): the XMP namespace of its document properties, and the embedded file's name. */
const FX_NS = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';
export const FACTURX_FILE_NAME = 'factur-x.xml';

const PROPERTIES: [name: string, description: string][] = [
  ['DocumentFileName', 'Name of the embedded XML invoice file'],
  ['DocumentType', 'INVOICE'],
  ['Version', 'Version of the Factur-X XML schema'],
  ['ConformanceLevel', 'Factur-X profile of the embedded XML'],
];

/**
 * The XMP a Factur-X reader looks for: the fx: properties (file name, type, version, profile) and,
 * because PDF/A allows only properties of known schemas, the extension schema that declares them.
 */
function facturXmp(): string {
  const values: Record<string, string> = {
    DocumentFileName: FACTURX_FILE_NAME,
    DocumentType: 'INVOICE',
    Version: '1.0',
    ConformanceLevel: 'EN 16931',
  };
  const props = PROPERTIES.map(
    ([name, description]) => `
              <rdf:li rdf:parseType="Resource">
                <pdfaProperty:name>${name}</pdfaProperty:name>
                <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                <pdfaProperty:category>external</pdfaProperty:category>
                <pdfaProperty:description>${esc(description)}</pdfaProperty:description>
              </rdf:li>`,
  ).join('');
  return `
        <rdf:Description rdf:about="" xmlns:fx="${FX_NS}">
${Object.entries(values)
  .map(([k, v]) => `            <fx:${k}>${esc(v)}</fx:${k}>`)
  .join('\n')}
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
          <pdfaExtension:schemas>
            <rdf:Bag>
              <rdf:li rdf:parseType="Resource">
                <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
                <pdfaSchema:namespaceURI>${FX_NS}</pdfaSchema:namespaceURI>
                <pdfaSchema:prefix>fx</pdfaSchema:prefix>
                <pdfaSchema:property>
                  <rdf:Seq>${props}
                  </rdf:Seq>
                </pdfaSchema:property>
              </rdf:li>
            </rdf:Bag>
          </pdfaExtension:schemas>
        </rdf:Description>`;
}

/**
 * What turns the invoice's PDF into a Factur-X invoice: the CII XML embedded as `factur-x.xml`, tied
 * to the document by the catalog's /AF with relationship Alternative (the XML is the same invoice in
 * another form, as ZUGFeRD asks), and the XMP metadata naming it.
 */
export function facturX(ciiXml: string, now = new Date()): ArchivalPdf {
  return {
    finish: (doc) => {
      doc.file(Buffer.from(ciiXml, 'utf8'), {
        name: FACTURX_FILE_NAME,
        type: 'text/xml',
        description: 'Factur-X invoice, EN 16931 profile',
        // pdfkit writes /AFRelationship from this option, which its type definitions do not list yet.
        ...{ relationship: 'Alternative' },
        creationDate: now,
        modifiedDate: now,
      });
      doc.appendXML(facturXmp());
    },
  };
}
